import { afterAll, beforeAll } from 'vitest';
import { SAMPLE_TABLE } from '../../../resources/playground/sample-table';
import { type FakeBedrock, type ScriptedTurn, startFakeBedrock } from '../../support/fake-bedrock';

/** The fake Bedrock Runtime for one e2e file: started before its first test, closed after its last. */
export function useFakeBedrock(): { readonly fake: FakeBedrock } {
  let fake: FakeBedrock | undefined;
  beforeAll(async () => {
    fake = await startFakeBedrock();
  });
  afterAll(async () => {
    await fake?.close();
  });
  return {
    get fake() {
      if (!fake) throw new Error('The fake Bedrock is not started: use it inside a test.');
      return fake;
    },
  };
}

/** The model proposes one write (mark USER#u1 · PROFILE as VIP) that the user approves or rejects. */
export const vipProposalTurn: ScriptedTurn = {
  kind: 'tool',
  tools: [
    {
      name: 'propose_changes',
      input: {
        reason: 'Mark u1 as VIP',
        changes: [
          {
            action: 'update',
            table: SAMPLE_TABLE,
            partitionKey: 'USER#u1',
            sortKey: 'PROFILE',
            set: { vip: true },
          },
        ],
      },
    },
  ],
};

/**
 * The model reads the sample table, proposes the VIP write, which the user must approve or
 * reject on a card, then answers with `reply`.
 */
export function vipProposal(reply: string): ScriptedTurn[] {
  return [
    // The agent refuses a write to a table it has not described in this conversation.
    { kind: 'tool', tools: [{ name: 'describe_table', input: { table: SAMPLE_TABLE } }] },
    vipProposalTurn,
    { kind: 'text', text: reply },
  ];
}
