import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDynamooseSchema } from '../../../src/main/migration/dynamoose-schema';
import { dateSettingsOf, readOrmModel } from '../../../src/main/migration/orm-expectations';
import { ormModelOfDynamoose } from '../../../src/shared/schema/orm-from-dynamoose';

const fixtures = path.join(import.meta.dirname, '../../fixtures/dynamoose');
const file = path.join(fixtures, 'account-models.js');

describe('the dynotable-orm model generated from a dynamoose schema file', () => {
  it('is a file the real dynamoose 4.2.0 loads as written', () => {
    const loaded = createRequire(import.meta.url)(file) as { Account: { table(): { name: string } } };
    expect(loaded.Account.table().name).toBe('Accounts');
  });

  it('carries stored names, timestamps, TTL in seconds, each Date storage, set vs list and the Combine note', async () => {
    const models = readDynamooseSchema(await readFile(file, 'utf8'), file);
    const generated = ormModelOfDynamoose(models, file);
    expect(generated).toBe(await readFile(path.join(fixtures, 'account-models.orm.txt'), 'utf8'));
    const line = (name: string) => generated.split('\n').find((l) => l.startsWith(`    ${name}:`));
    // The alias is the code's name; the table stores the declared one.
    expect(line('email')).toContain('the table stores it as "email"');
    expect(line('mail')).toBeUndefined();
    expect(line('displayName')).toContain('derived, compute it in code');
    expect(line('roles')).toContain('z.set(z.string())');
    expect(line('tags')).toContain('z.array(z.string())');
    expect(generated).toContain("{timestamps: {createdAt: 'created', updatedAt: 'modified'}}");
  });

  it('reads back through --model with each Date at the storage dynamoose used', async () => {
    for (const name of ['account-models.js', 'releases-models.js']) {
      const source = path.join(fixtures, name);
      const generated = ormModelOfDynamoose(
        readDynamooseSchema(await readFile(source, 'utf8'), source),
        source,
      );
      const settings = dateSettingsOf(readOrmModel(generated, 'generated.ts'));
      expect(settings).toEqual(
        name === 'account-models.js'
          ? [
              { path: 'bornOn', storage: 'iso' },
              { path: 'created', storage: 'millis' },
              { path: 'modified', storage: 'seconds' },
              { path: 'expiresAt', storage: 'seconds' },
            ]
          : [
              { path: 'createdAt', storage: 'millis' },
              { path: 'updatedAt', storage: 'millis' },
              { path: 'ttl', storage: 'seconds' },
              { path: 'createdAt', storage: 'millis' },
              { path: 'updatedAt', storage: 'millis' },
            ],
      );
    }
  });
});
