import { describe, expect, it } from 'vitest';
import { readDynamooseSchema } from '../../../src/main/migration/dynamoose-schema';
import { dynamooseReview } from '../../../src/main/migration/dynamoose-review';

const read = (text: string) => readDynamooseSchema(text, 'models.ts');

describe('a dynamoose schema file read as text, never run', () => {
  it('reads 4.x types: COMBINE with its separator, CONSTANT, a Date stored as ISO, get/set, aliases, the Table TTL', () => {
    const [user] = read(`
      import * as dynamoose from "dynamoose";
      const schema = new dynamoose.Schema({
        id: { type: String, hashKey: true },
        first: String, last: String,
        fullName: dynamoose.type.COMBINE(["first", "last"], " "),
        kind: dynamoose.type.CONSTANT("user"),
        born: { type: { value: Date, settings: { storage: "iso" } } },
        email: { type: String, set: (v) => v.toLowerCase(), get: (v) => v, map: ["mail", "eMail"] },
        tags: { type: Set, schema: [String] },
        "__proto__": Number,
        "a.b": { type: Object, schema: { c: [Number] } },
      }, { timestamps: { createdAt: "created", updatedAt: { modified: { type: { value: Date, settings: { storage: "seconds" } } } } }, saveUnknown: ["meta.**"] });
      export const User = dynamoose.model("User", schema);
      export const table = new dynamoose.Table("Users", [User], { expires: { ttl: 60_000, attribute: "expiresAt", items: { returnExpired: true } } });
    `);
    expect(user?.name).toBe('User');
    const by = new Map(user?.attributes.map((a) => [a.name, a]));
    expect(by.get('fullName')).toMatchObject({
      type: 'Combine',
      combine: { attributes: ['first', 'last'], separator: ' ' },
    });
    expect(by.get('kind')).toMatchObject({ type: 'Constant', constant: 'user' });
    expect(by.get('born')).toMatchObject({ type: 'Date', dateStorage: 'iso' });
    expect(by.get('email')).toMatchObject({ hasGet: true, hasSet: true, aliases: ['mail', 'eMail'] });
    expect(by.get('tags')).toMatchObject({ type: 'Set', element: 'String' });
    expect(by.get('__proto__')).toMatchObject({ type: 'Number', path: '__proto__' });
    expect(by.get('a.b')?.children?.[0]).toMatchObject({
      path: 'a.b.c',
      type: 'Array',
      arrayShorthand: true,
      element: 'Number',
    });
    expect(user?.settings).toEqual({
      timestamps: { createdAt: 'created', updatedAt: 'modified', updatedAtStorage: 'seconds' },
      saveUnknown: ['meta.**'],
      expires: { attribute: 'expiresAt', ttl: 60_000, returnExpired: true },
    });
    expect(user?.unread).toEqual([]);
  });

  it('reads 0.x options and names what it cannot read without running the file', () => {
    const [model] = read(`
      var base = { id: { type: String, hashKey: true } };
      var s = new Schema({ ...base, active: Boolean, [dynamicName]: String, tags: [String] }, { useNativeBooleans: false, useDocumentTypes: false, expires: 3600 });
    `);
    expect(model?.settings).toEqual({
      useNativeBooleans: false,
      useDocumentTypes: false,
      expires: { attribute: 'expires', ttl: 3600 },
    });
    expect(model?.unread).toEqual([
      'the definition: a spread (...base)',
      'the definition: a computed attribute name',
    ]);
    expect(model?.attributes.map((a) => a.name)).toEqual(['active', 'tags']);
    const notes = dynamooseReview('m.js', model ? [model] : [], undefined).notes.map((n) => n.setting);
    expect(notes).toEqual([
      '[Type] shorthand',
      'expires',
      'useNativeBooleans: false',
      'useDocumentTypes: false',
    ]);
  });

  it('refuses a file with no definition, and TypeScript inside one, with a sentence naming the place', () => {
    expect(() => read('export const x = 1;')).toThrow(
      'models.ts has no dynamoose Schema({...}) with its attributes written out: DynoTable reads the definition as text and does not run the file.',
    );
    expect(() =>
      read('const s = new Schema({\n  id: String,\n  n: { type: Number, get: (v: number) => v },\n});'),
    ).toThrow(
      /^models\.ts could not be read at line 3, column \d+: DynoTable reads a Schema\(\{\.\.\.\}\) definition as JavaScript text/,
    );
  });
});
