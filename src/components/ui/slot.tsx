/**
 * `asChild` support: renders the single child element with these props merged in (the child's
 * handlers run first, classes join, styles combine, both refs are set), as radix Slot does. A few lines instead of
 * radix Slot, which sat in the entry chunk that /login loads.
 */
import * as React from "react";

type AnyProps = Record<string, unknown>;

function setRef<T>(ref: React.Ref<T> | undefined, value: T | null) {
  if (typeof ref === "function") ref(value);
  else if (ref) (ref as React.RefObject<T | null>).current = value;
}

export function Slot({ children, ...slotProps }: AnyProps & { children?: React.ReactNode }) {
  if (!React.isValidElement<AnyProps>(children))
    return React.Children.count(children) > 1 ? React.Children.only(null) : null;
  const childProps = children.props;
  const merged: AnyProps = { ...slotProps, ...childProps };
  for (const key of Object.keys(slotProps)) {
    const ours = slotProps[key];
    const theirs = childProps[key];
    if (/^on[A-Z]/.test(key) && typeof ours === "function" && typeof theirs === "function") {
      merged[key] = (...args: unknown[]) => {
        const result = theirs(...args);
        ours(...args);
        return result;
      };
    } else if (key === "className") merged[key] = [ours, theirs].filter(Boolean).join(" ");
    else if (key === "style") merged[key] = { ...(ours as object), ...(theirs as object) };
  }
  const ourRef = slotProps.ref as React.Ref<unknown> | undefined;
  const theirRef = childProps.ref as React.Ref<unknown> | undefined;
  if (ourRef && theirRef)
    merged.ref = (node: unknown) => {
      setRef(ourRef, node);
      setRef(theirRef, node);
    };
  return React.cloneElement(children, merged);
}
