import { Button } from "~/components/ui/button";
import { DialogFooter } from "~/components/ui/dialog";

/** Cancel and the submit button of the dialog's form `form` (by id: the buttons sit outside it). */
export function FormDialogFooter({
  form,
  pending,
  submitLabel,
  onCancel,
}: {
  form: string;
  pending: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  return (
    <DialogFooter>
      <Button variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" form={form} disabled={pending}>
        {pending ? "Saving…" : submitLabel}
      </Button>
    </DialogFooter>
  );
}
