import { describe, expect, it } from 'vitest';
import { glueTableInput, itemType } from '../../src/main/athena/glue-table';
import { AthenaMappingError } from '../../src/main/athena/glue-names';
import { observedSchema, SHOP_ITEMS } from '../support/athena/shop';

/** The Glue table over a DynamoDB JSON export, written from what the Schema view observed. */
describe('Glue table of an export', () => {
  const root = observedSchema(SHOP_ITEMS);

  it('gives an attribute of several types one member per type, and says so', () => {
    const notes: string[] = [];
    const type = itemType(root, notes);
    expect(type).toContain('price:struct<s:string,n:string>');
    expect(type).toContain('createdat:struct<s:string,n:string>');
    expect(notes).toContain(
      'price holds N, S: each type is its own member (price.n, price.s), so no value is lost.',
    );
  });

  it('keeps numbers as text, so the SerDe cannot round them', () => {
    expect(itemType(root, [])).toContain('total:struct<n:string>');
  });

  it('nests maps and lists of maps, and a NULL next to a string', () => {
    const type = itemType(root, []);
    expect(type).toContain('address:struct<m:struct<city:struct<s:string>,zip:struct<s:string,n:string>>>');
    expect(type).toContain(
      'lines:struct<l:array<struct<m:struct<sku:struct<s:string>,qty:struct<n:string>>>>>',
    );
    expect(type).toContain('email:struct<s:string,`null`:boolean>');
    expect(type).toContain('tags:struct<ss:array<string>>');
  });

  it('quotes reserved words and reads a dotted top-level name as the SerDe does', () => {
    const notes: string[] = [];
    const type = itemType(root, notes);
    expect(type).toContain('`select`:struct<s:string>');
    expect(type).toContain('address_city:struct<s:string>');
    expect(notes).toContain(
      '"address.city" has a dot in its name: Athena reads it as address_city (the SerDe\'s dots.in.keys).',
    );
  });

  it('refuses two attributes Athena would read as one, naming both', () => {
    const clash = observedSchema([{ PK: { S: 'a' }, SK: { S: 'b' }, Total: { N: '1' }, total: { N: '2' } }]);
    expect(() => itemType(clash, [])).toThrow(AthenaMappingError);
    expect(() => itemType(clash, [])).toThrow(/"Total" and "total".*both read as "total"/);
  });

  it('is an external JSON table at the export data location, read by the OpenX SerDe', () => {
    const { table } = glueTableInput({
      name: 'shop_export',
      location: 's3://bucket/p/AWSDynamoDB/0169-abc/data/',
      root,
      exportArn: 'arn:aws:dynamodb:us-east-1:1:table/Shop/export/0169-abc',
    });
    expect(table.StorageDescriptor.Location).toBe('s3://bucket/p/AWSDynamoDB/0169-abc/data/');
    expect(table.StorageDescriptor.Columns).toHaveLength(1);
    expect(table.StorageDescriptor.SerdeInfo.SerializationLibrary).toBe('org.openx.data.jsonserde.JsonSerDe');
    expect(table.StorageDescriptor.SerdeInfo.Parameters['dots.in.keys']).toBe('true');
  });
});
