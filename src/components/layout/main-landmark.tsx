import * as React from "react";

/**
 * Whether the tree is already inside the page's `<main>` (the signed-in shell's content column).
 * A screen that can appear both inside the shell and on its own (the 404 and error screens) is its
 * own main landmark only when nothing above it is: axe wants exactly one, never nested.
 */
const InsideMain = React.createContext(false);

function MainLandmark({ children, ...props }: React.ComponentProps<"main">) {
  return (
    <main {...props}>
      <InsideMain.Provider value={true}>{children}</InsideMain.Provider>
    </main>
  );
}

/** A `<main>` when the page has none yet, else a plain `<div>`. */
function MainOrDiv(props: React.ComponentProps<"div">) {
  const inside = React.useContext(InsideMain);
  return inside ? <div {...props} /> : <main {...props} />;
}

export { MainLandmark, MainOrDiv };
