import { AthenaMappingError } from '../glue-names';

export class TranslateError extends AthenaMappingError {}

/** A sentence naming what cannot run on Athena and why, thrown before anything is started. */
export function refuse(construct: string, why: string): never {
  throw new TranslateError(
    construct,
    `${construct.charAt(0).toUpperCase()}${construct.slice(1)} cannot run on Athena: ${why}.`,
  );
}
