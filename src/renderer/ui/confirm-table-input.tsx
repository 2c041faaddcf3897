import { TextInput } from './text-input';

export interface ConfirmTableInputProps {
  table: string;
  value: string;
  onChange(value: string): void;
  /** What the typed name confirms ("the purge"), so two such boxes on one screen differ by name. */
  confirms: string;
  className?: string;
}

/** Where a destructive write asks for the table name to be typed (see shared/dynamo/confirmation). */
export function ConfirmTableInput({ table, value, onChange, confirms, className }: ConfirmTableInputProps) {
  return (
    <TextInput
      className={className}
      label={`Type the table name to confirm ${confirms}`}
      placeholder={`type ${table} to confirm`}
      value={value}
      onChange={onChange}
    />
  );
}
