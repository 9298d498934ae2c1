/**
 * "You have unsaved changes" for a page of several forms, each saved on its own (issue 53, M6):
 * every form says whether it differs from what was saved (`useUnsaved`, or `useFormChanges` for an
 * uncontrolled form); while any does, leaving the page in the app asks first (TanStack Router's
 * blocker, with a real dialog) and closing or reloading the tab gets the browser's own warning.
 * Moving between the page's sections keeps every form as it was, so that is never blocked.
 */
import { useBlocker } from "@tanstack/react-router";
import * as React from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";

type Report = (id: string, dirty: boolean) => void;
const UnsavedContext = React.createContext<Report>(() => {});

export function UnsavedChangesGuard({ children }: { children: React.ReactNode }) {
  const [dirty, setDirty] = React.useState<Record<string, boolean>>({});
  const report = React.useCallback<Report>(
    (id, d) => setDirty((m) => (!!m[id] === d ? m : { ...m, [id]: d })),
    [],
  );
  const any = Object.values(dirty).some(Boolean);
  const anyRef = React.useRef(any);
  anyRef.current = any;
  const blocker = useBlocker({
    shouldBlockFn: ({ current, next }) => anyRef.current && current.pathname !== next.pathname,
    enableBeforeUnload: () => anyRef.current,
    withResolver: true,
  });
  return (
    <UnsavedContext.Provider value={report}>
      {children}
      <ConfirmDialog
        open={blocker.status === "blocked"}
        onOpenChange={(open) => {
          if (!open) blocker.reset?.();
        }}
        destructive
        title="Leave without saving?"
        description="Changes you made on this page are not saved yet. If you leave now, they are lost."
        confirmLabel="Leave without saving"
        cancelLabel="Stay on this page"
        onConfirm={() => blocker.proceed?.()}
      />
    </UnsavedContext.Provider>
  );
}

/** Tells the page whether this form has unsaved changes (false again when it unmounts). */
export function useUnsaved(dirty: boolean) {
  const report = React.useContext(UnsavedContext);
  const id = React.useId();
  React.useEffect(() => report(id, dirty), [report, id, dirty]);
  React.useEffect(() => () => report(id, false), [report, id]);
}

/**
 * Unsaved changes of an uncontrolled form: its fields (FormData, hidden inputs included) and any
 * state kept outside them (`extra`), compared with what they were when it mounted or last saved.
 * Spread `form` on the <form>; call `saved()` after a save.
 */
export function useFormChanges(extra: unknown = null) {
  const ref = React.useRef<HTMLFormElement>(null);
  const initial = React.useRef<string | null>(null);
  const [dirty, setDirty] = React.useState(false);
  const extraKey = JSON.stringify(extra);
  const snapshot = React.useCallback(() => {
    const f = ref.current;
    if (!f) return "";
    const fields = [...new FormData(f)].map(([k, v]) => [k, typeof v === "string" ? v : v.name]);
    return JSON.stringify([fields, extraKey]);
  }, [extraKey]);
  const check = React.useCallback(() => {
    if (initial.current === null) initial.current = snapshot();
    setDirty(snapshot() !== initial.current);
  }, [snapshot]);
  // The first snapshot once the form is in the page; later ones when `extra` changes.
  React.useEffect(check, [check]);
  useUnsaved(dirty);
  return {
    form: { ref, onChange: check, onInput: check },
    dirty,
    saved: () => {
      initial.current = snapshot();
      setDirty(false);
    },
  };
}
