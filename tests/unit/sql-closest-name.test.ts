import { describe, expect, it } from 'vitest';
import { closestName } from '../../src/main/sql/catalog/closest-name';

describe('did you mean', () => {
  it('finds a dropped, swapped, doubled or wrong letter, ignoring case', () => {
    const names = ['total', 'status', 'orderId', 'createdAt'];
    expect(closestName('totl', names)).toBe('total');
    expect(closestName('stauts', names)).toBe('status');
    expect(closestName('orderrId', names)).toBe('orderId');
    expect(closestName('CREATEDAT', names)).toBe('createdAt');
    expect(closestName('createdOt', names)).toBe('createdAt');
  });

  it('guesses nothing when no name is within a third of the length', () => {
    expect(closestName('zzqqxx', ['total', 'status'])).toBeUndefined();
    expect(closestName('ab', ['xy', 'total'])).toBeUndefined();
    expect(closestName('total', [])).toBeUndefined();
  });

  it('prefers the nearer of two names, and treats __proto__ as an ordinary name', () => {
    expect(closestName('totals', ['total', 'totalsx2'])).toBe('total');
    expect(closestName('__proto_', ['constructor', '__proto__'])).toBe('__proto__');
  });
});
