/**
 * What a platform admin does to a user, each behind a dialog that names the user and the act:
 * ban (reason, length), impersonate (reason for the audit log), change the platform role, remove.
 * Shared by the users table (users-table.tsx) and one user's page (user-detail.tsx).
 */

import { BAN_MAX_DAYS, BAN_REASON_MAX, IMPERSONATION_REASON_MAX } from "@core/limits";
import * as React from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { authApi } from "~/lib/auth/api";
import { useAuth } from "~/lib/auth/use-auth";

export type UserAction =
  | { kind: "ban" }
  | { kind: "impersonate" }
  | { kind: "role"; role: string }
  | { kind: "remove" };

type Target = { id: string; name: string; email: string };

/**
 * What the platform roles let someone do, said where an admin changes one (M14): the scope is the
 * whole platform, unlike the roles a member holds in one organization (owner, admin, organizer,
 * viewer), which its Members section sets.
 */
const ROLE_MEANS: Record<string, string> = {
  user: "They lose every platform-wide right. Their memberships and roles in organizations stay as they are.",
  organizer:
    "Platform organizers may create and run organizations. Their roles in existing organizations stay as they are.",
  admin:
    "Platform admins manage every user and every organization on the platform, including bans, impersonation and all data. This is not a role in one organization: to make someone an admin of one organization, change their role in its Members section.",
};

/** "a platform admin", "a platform user", "a platform organizer". */
export const platformRoleName = (role: string) => `platform ${role}`;

const BAN_LENGTHS = [
  { value: "never", label: "Until unbanned" },
  { value: "1", label: "1 day" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "custom", label: "A number of days…" },
] as const;

/**
 * The dialog for `action` on `user` (closed when `action` is null). `onDone` runs after the act
 * succeeded (toast, refresh); a failure stays in the dialog.
 */
export function UserActionDialog({
  user,
  action,
  onClose,
  onDone,
  returnFocusRef,
}: {
  user: Target;
  action: UserAction | null;
  onClose: () => void;
  onDone: (message: string) => Promise<void> | void;
  returnFocusRef?: React.RefObject<HTMLElement | null>;
}) {
  const auth = useAuth();
  const [reason, setReason] = React.useState("");
  const [length, setLength] = React.useState<string>("never");
  const [days, setDays] = React.useState("");
  // The last action stays on screen while the dialog animates out.
  const [shown, setShown] = React.useState<UserAction | null>(action);
  if (action && action !== shown) setShown(action);
  const kind = action?.kind;
  // Each opening starts empty.
  React.useEffect(() => {
    if (kind) {
      setReason("");
      setLength("never");
      setDays("");
    }
  }, [kind]);

  const common = {
    open: action !== null,
    onOpenChange: (o: boolean) => {
      if (!o) onClose();
    },
    returnFocusRef,
  };
  const who = user.name || user.email;

  const view = action ?? shown;
  if (view?.kind === "impersonate")
    return (
      <ConfirmDialog
        {...common}
        title={`Impersonate ${who}?`}
        description={`You will see the portal as ${user.email} until you stop. Your reason is recorded in the audit log.`}
        confirmLabel="Impersonate"
        onConfirm={() => auth.impersonate(user.id, reason.trim() || undefined)}
      >
        <Field label="Reason" description="Recorded in the audit log.">
          <Textarea
            value={reason}
            maxLength={IMPERSONATION_REASON_MAX}
            rows={3}
            onChange={(e) => setReason(e.target.value)}
          />
        </Field>
      </ConfirmDialog>
    );

  if (view?.kind === "role")
    return (
      <ConfirmDialog
        {...common}
        title={`Make ${who} a ${platformRoleName(view.role)}?`}
        description={ROLE_MEANS[view.role] ?? `Their platform role becomes ${view.role}.`}
        confirmLabel={`Make ${platformRoleName(view.role)}`}
        onConfirm={async () => {
          await authApi.admin.setRole(user.id, view.role);
          await onDone(`${who} is now a ${platformRoleName(view.role)}`);
        }}
      />
    );

  if (view?.kind === "remove")
    return (
      <ConfirmDialog
        {...common}
        destructive
        title={`Remove ${user.email}?`}
        description="The account is deleted for good and signed out everywhere. Organizations keep their records."
        confirmLabel="Remove user"
        onConfirm={async () => {
          await authApi.admin.removeUser(user.id);
          await onDone(`${user.email} removed`);
        }}
      />
    );

  // Ban (also what a never-opened dialog renders, closed).
  const customDays = Number(days);
  const customValid =
    length !== "custom" || (/^\d+$/.test(days) && customDays >= 1 && customDays <= BAN_MAX_DAYS);
  const expiresInDays = length === "never" ? undefined : length === "custom" ? customDays : Number(length);
  return (
    <ConfirmDialog
      {...common}
      destructive
      title={`Ban ${who}?`}
      description={`${user.email} is signed out everywhere and cannot sign in until the ban ends or is lifted.`}
      confirmLabel="Ban user"
      canConfirm={customValid}
      onConfirm={async () => {
        await authApi.admin.banUser(
          user.id,
          reason.trim() || undefined,
          expiresInDays === undefined ? undefined : expiresInDays * 86_400,
        );
        await onDone(`${who} banned`);
      }}
    >
      <Field
        label="Reason"
        description={`Optional; up to ${BAN_REASON_MAX} characters. Recorded in the audit log.`}
      >
        <Textarea
          value={reason}
          maxLength={BAN_REASON_MAX}
          rows={3}
          onChange={(e) => setReason(e.target.value)}
        />
      </Field>
      <Field label="Ban length">
        <NativeSelect className="w-full px-3" value={length} onChange={(e) => setLength(e.target.value)}>
          {BAN_LENGTHS.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {length === "custom" ? (
        <Field
          label="Days"
          required
          description={`From 1 to ${BAN_MAX_DAYS} days.`}
          error={days !== "" && !customValid ? `Enter whole days from 1 to ${BAN_MAX_DAYS}.` : undefined}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={BAN_MAX_DAYS}
            step={1}
            value={days}
            onChange={(e) => setDays(e.target.value)}
          />
        </Field>
      ) : null}
    </ConfirmDialog>
  );
}
