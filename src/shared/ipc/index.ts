export * from './contract';
export * from './connection';
export * from './operations';
export * from './tables';
export * from '../errors';
export * from '../dynamo/attribute-value';
