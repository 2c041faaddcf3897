import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { FieldProblem } from '../../../shared/dynamo/table-validation';

/** Bad input gets its sentence, and every field's problem travels in details for the form. */
export function refuseProblems(problems: FieldProblem[]): void {
  const first = problems[0];
  if (!first) return;
  const code = problems.some((p) => p.message.startsWith('DynamoDB Local'))
    ? ErrorCodes.notSupported
    : ErrorCodes.invalidInput;
  throw new AppFailure(code, first.message, false, { fields: problems });
}
