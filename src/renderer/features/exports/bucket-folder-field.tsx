import { RowField } from '../../ui/form-row';
import { TextInput } from '../../ui/text-input';

/**
 * S3's "key prefix", named a folder: a table's key prefix (USER#) is another thing, and the
 * export and import forms say it the same way. `purpose` ends the tooltip's sentence.
 */
export function BucketFolderField(props: {
  label: string;
  purpose: string;
  value: string;
  onChange(value: string): void;
  placeholder: string;
}) {
  return (
    <RowField caption="Folder in the bucket" grow>
      <TextInput
        label={props.label}
        title={`The S3 key prefix ${props.purpose}`}
        value={props.value}
        onChange={props.onChange}
        placeholder={props.placeholder}
      />
    </RowField>
  );
}
