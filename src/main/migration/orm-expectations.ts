import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { DateSetting, DateStorage, OrmModelEntity } from '../../shared/ipc/migration';
import { formatPath } from './paths';

/**
 * The date storage a dynotable-orm model file says the team has chosen, as the pre-flight's
 * expectations: every `z.date()` attribute of a `model(...)` is stored the way that model's
 * `defaultDateStorage` says (epoch milliseconds when it says nothing: the ORM's default). Read
 * from the text the Schema view generates (src/shared/schema/orm-model.ts), not by running it: a
 * pipeline must not execute a file to decide whether a table may be migrated. The CLI's --model
 * and the Pre-flight view's model file both come here.
 */

const STORAGE: Record<string, DateStorage> = {
  iso: 'iso',
  epochMillis: 'millis',
  millis: 'millis',
  epochSeconds: 'seconds',
  seconds: 'seconds',
};

const NAME = String.raw`([A-Za-z_$][A-Za-z0-9_$]*|"(?:[^"\\]|\\.)*")`;
/**
 * `name: z.date()` or `"a.b": z.date()`, at the start of a field line; or a field that says its
 * own storage, `ttl: dateStorage(z.date(), 'epochSeconds')` (the dynamoose file's generated model).
 */
const DATE_FIELD = new RegExp(
  String.raw`^\s*${NAME}\s*:\s*(?:z\.date\(\)|dateStorage\(\s*z\.date\(\)\s*,\s*['"]([A-Za-z]+)['"]\s*\))`,
  'gm',
);
/** Any `name:` field line, with its indentation (the shallowest ones are the top level). */
const FIELD = new RegExp(String.raw`^([ \t]*)${NAME}\s*:`, 'gm');
const DEFAULT_STORAGE = /defaultDateStorage\s*:\s*['"]([A-Za-z]+)['"]/;
const MODEL_NAME = /^\s*['"]([^'"]{1,200})['"]/;

const unquote = (raw: string): string => (raw.startsWith('"') ? (JSON.parse(raw) as string) : raw);

/** The top-level attribute names of one model's body (options like defaultDateStorage excluded). */
function topLevelNames(body: string): string[] {
  const fields = [...body.matchAll(FIELD)]
    .map((m) => ({ indent: (m[1] as string).length, name: unquote(m[2] as string) }))
    .filter((f) => f.name !== 'defaultDateStorage');
  const top = Math.min(...fields.map((f) => f.indent));
  return [...new Set(fields.filter((f) => f.indent === top).map((f) => f.name))];
}

/** Each model(...) of the file: its name, date storage, attributes and Date attributes. */
export function readOrmModel(text: string, fileName: string): OrmModelEntity[] {
  const models = text.split(/\bmodel\(/).slice(1);
  if (models.length === 0)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `${fileName} has no dynotable-orm model(...) in it: use the file the Schema view saves as "dynotable-orm model".`,
    );
  return models.map((body, i) => {
    const said = DEFAULT_STORAGE.exec(body)?.[1];
    const storage = said === undefined ? 'millis' : STORAGE[said];
    if (!storage)
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `${fileName}: defaultDateStorage '${said ?? ''}' is not one of iso, epochMillis or epochSeconds.`,
      );
    const fields = [...body.matchAll(DATE_FIELD)];
    const overrides = fields.flatMap((m): DateSetting[] => {
      if (m[2] === undefined) return [];
      const own = STORAGE[m[2]];
      if (!own)
        throw new AppFailure(
          ErrorCodes.invalidInput,
          `${fileName}: dateStorage '${m[2]}' is not one of iso, epochMillis or epochSeconds.`,
        );
      return [{ path: formatPath([unquote(m[1] as string)]), storage: own }];
    });
    return {
      name: MODEL_NAME.exec(body)?.[1] ?? `model ${i + 1}`,
      dateStorage: storage,
      isStorageSaid: said !== undefined,
      attributes: topLevelNames(body),
      dates: fields.map((m) => formatPath([unquote(m[1] as string)])),
      ...(overrides.length > 0 ? { dateOverrides: overrides } : {}),
    };
  });
}

/** What the verdict counts: each z.date() attribute stored as its field, or else its model, says. */
export function dateSettingsOf(entities: readonly OrmModelEntity[]): DateSetting[] {
  return entities.flatMap((entity) =>
    entity.dates.map((path) => ({
      path,
      storage: entity.dateOverrides?.find((o) => o.path === path)?.storage ?? entity.dateStorage,
    })),
  );
}

export function expectationsOfOrmModel(text: string, fileName: string): DateSetting[] {
  return dateSettingsOf(readOrmModel(text, fileName));
}
