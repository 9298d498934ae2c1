export {
  Field,
  type FieldControlProps,
  FieldDescription,
  FieldError,
  type FieldErrorValue,
  type FieldProps,
} from "~/components/ui/form-field";
