import { z } from 'zod';
import { requestIdSchema } from './operations';

export const connectionKinds = ['playground', 'profile', 'keys', 'default-chain'] as const;

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour like #1f6feb');

/** A saved connection. Secrets (access keys) are never part of it: they live encrypted in main. */
export const connectionSchema = z.object({
  id: z.string().min(1).max(64),
  label: z.string().min(1).max(80),
  color: hexColor,
  kind: z.enum(connectionKinds),
  /** AWS shared config profile name (kind "profile"); SSO and assume-role profiles included. */
  profile: z.string().max(128).optional(),
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$|^local$/, 'a region like eu-west-1'),
  /** Endpoint override: DynamoDB Local, LocalStack. */
  endpoint: z.url({ protocol: /^https?$/ }).optional(),
  readOnly: z.boolean(),
  /** Production connections ask for the table name before destructive work. */
  isProduction: z.boolean(),
  /** For kind "keys": whether encrypted keys are stored (the keys themselves never leave main). */
  hasStoredKeys: z.boolean().optional(),
});
export type Connection = z.infer<typeof connectionSchema>;

export const accessKeysSchema = z.object({
  accessKeyId: z.string().regex(/^[A-Z0-9]{16,128}$/, 'an access key id like AKIA…'),
  secretAccessKey: z.string().min(16).max(256),
  sessionToken: z.string().max(4096).optional(),
});
export type AccessKeys = z.infer<typeof accessKeysSchema>;

export const saveConnectionInput = z.object({
  connection: connectionSchema.omit({ hasStoredKeys: true }).extend({ id: z.string().max(64).optional() }),
  /** Only for kind "keys"; omitted on edit to keep the stored keys. */
  accessKeys: accessKeysSchema.optional(),
});

/** A connection as the user edits it: no derived fields, and no id until it is first saved. */
export type ConnectionDraft = z.output<typeof saveConnectionInput>['connection'];

export const testConnectionOutput = z.object({
  ok: z.boolean(),
  /** One sentence a person understands. */
  message: z.string(),
  tableCount: z.number().int().optional(),
  errorCode: z.string().optional(),
  /** The connection can be repaired by signing in again (expired SSO session). */
  canSignIn: z.boolean().optional(),
});

export const profileSummarySchema = z.object({
  name: z.string(),
  kind: z.enum(['sso', 'assume-role', 'keys', 'process', 'other']),
  region: z.string().optional(),
});
export type ProfileSummary = z.infer<typeof profileSummarySchema>;

/** An MFA code is six digits (TOTP apps and hardware tokens alike); STS accepts nothing else. */
export const mfaCodeSchema = z.string().regex(/^\d{6}$/, 'the 6 digits your MFA device shows');

/** The answer to an `mfa` prompt event: the code, or cancel. The code is never stored or logged. */
export const mfaCodeInput = z.union([
  z.object({ promptId: requestIdSchema, code: mfaCodeSchema }).strict(),
  z.object({ promptId: requestIdSchema, cancel: z.literal(true) }).strict(),
]);
