import { Field } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";

/**
 * A password the user chooses (sign-up, reset, change, an organizer's first one), said once: the
 * limits are app.config.ts `password` (better-auth's 8–128), and the server also refuses the common
 * passwords (worker/auth/password-policy.ts), which the hint names.
 */
export function NewPasswordField({
  label,
  name = "password",
  error,
  required,
  disabled,
  description = "8 to 128 characters, not a common password.",
}: {
  label: string;
  name?: string;
  error?: string | null;
  /** Marks the field as required in its label (the input itself is always required). */
  required?: boolean;
  disabled?: boolean;
  description?: string;
}) {
  return (
    <Field label={label} description={description} required={required} error={error ?? undefined}>
      <Input
        name={name}
        type="password"
        autoComplete="new-password"
        minLength={8}
        maxLength={128}
        required
        disabled={disabled}
      />
    </Field>
  );
}
