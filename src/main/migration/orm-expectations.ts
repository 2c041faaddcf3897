import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { DateSetting, DateStorage } from '../../shared/ipc/migration';
import { formatPath } from './paths';

/**
 * The date storage a dynotable-orm model file says the team has chosen, as the pre-flight's
 * expectations: every `z.date()` attribute of a `model(...)` is stored the way that model's
 * `defaultDateStorage` says (epoch milliseconds when it says nothing: the ORM's default). Read
 * from the text the Schema view generates (src/shared/schema/orm-model.ts), not by running it: a
 * pipeline must not execute a file to decide whether a table may be migrated.
 */

const STORAGE: Record<string, DateStorage> = {
  iso: 'iso',
  epochMillis: 'millis',
  millis: 'millis',
  epochSeconds: 'seconds',
  seconds: 'seconds',
};

/** `name: z.date()` or `"a.b": z.date()`, at the start of a field line. */
const DATE_FIELD = /^\s*([A-Za-z_$][A-Za-z0-9_$]*|"(?:[^"\\]|\\.)*")\s*:\s*z\.date\(\)/gm;
const DEFAULT_STORAGE = /defaultDateStorage\s*:\s*['"]([A-Za-z]+)['"]/;

export function expectationsOfOrmModel(text: string, fileName: string): DateSetting[] {
  const models = text.split(/\bmodel\(/).slice(1);
  if (models.length === 0)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `${fileName} has no dynotable-orm model(...) in it; --model wants the file the Schema view saves as "dynotable-orm model".`,
    );
  const settings: DateSetting[] = [];
  for (const body of models) {
    const said = DEFAULT_STORAGE.exec(body)?.[1];
    const storage = said === undefined ? 'millis' : STORAGE[said];
    if (!storage)
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `${fileName}: defaultDateStorage '${said ?? ''}' is not one of iso, epochMillis or epochSeconds.`,
      );
    for (const match of body.matchAll(DATE_FIELD)) {
      const raw = match[1] as string;
      const name = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
      settings.push({ path: formatPath([name]), storage });
    }
  }
  return settings;
}
