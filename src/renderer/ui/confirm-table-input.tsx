import { TextInput } from './text-input';

export interface ConfirmTableInputProps {
  table: string;
  value: string;
  onChange(value: string): void;
  className?: string;
}

/** Where a destructive write asks for the table name to be typed (see shared/dynamo/confirmation). */
export function ConfirmTableInput({ table, value, onChange, className }: ConfirmTableInputProps) {
  return (
    <TextInput
      className={className}
      label="Type the table name to confirm"
      placeholder={`type ${table} to confirm`}
      value={value}
      onChange={onChange}
    />
  );
}
