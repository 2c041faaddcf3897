import { describe, expect, it } from 'vitest';
import type { OperationEvent } from '../../src/shared/ipc';
import {
  onOperation,
  outcomeUnknownCode,
  useOperationsStore,
} from '../../src/renderer/features/operations/store';
import { readSignInHints } from '../../src/renderer/features/sign-in/store';

const progress = (seq: number, message?: string): OperationEvent => ({
  type: 'progress',
  requestId: 'req-12345678',
  seq,
  progress: { items: seq, pages: 1, consumedCapacity: 0.5, message },
});

describe('operation events in the renderer', () => {
  it('keeps the latest state per request and ignores stale repeats', () => {
    const { receive } = useOperationsStore.getState();
    receive(progress(0));
    receive(progress(2));
    receive(progress(1));
    const state = useOperationsStore.getState().byRequest['req-12345678'];
    expect(state?.latest.seq).toBe(2);
    expect(state?.progress?.items).toBe(2);
    expect(state?.isFinished).toBe(false);
    receive({
      type: 'done',
      requestId: 'req-12345678',
      seq: 3,
      progress: { items: 3, pages: 1, consumedCapacity: 1 },
    });
    expect(useOperationsStore.getState().byRequest['req-12345678']?.isFinished).toBe(true);
    useOperationsStore.getState().forget('req-12345678');
    expect(useOperationsStore.getState().byRequest['req-12345678']).toBeUndefined();
  });

  it('delivers one request’s events to its listeners only', () => {
    const seen: number[] = [];
    const stop = onOperation('req-aaaaaaaa', (event) => seen.push(event.seq));
    useOperationsStore.getState().receive({ ...progress(0), requestId: 'req-aaaaaaaa' });
    useOperationsStore.getState().receive({ ...progress(0), requestId: 'req-bbbbbbbb' });
    stop();
    useOperationsStore.getState().receive({ ...progress(1), requestId: 'req-aaaaaaaa' });
    expect(seen).toEqual([0]);
  });
});

describe('a view that subscribes after its request ended', () => {
  const done = (requestId: string): OperationEvent => ({
    type: 'done',
    requestId,
    seq: 1,
    progress: { items: 1, pages: 1, consumedCapacity: 1 },
  });

  it('still gets the ending, once', async () => {
    useOperationsStore.getState().receive(done('req-quick-01'));
    const seen: string[] = [];
    const stop = onOperation('req-quick-01', (event) => seen.push(event.type));
    await Promise.resolve();
    // A repeat of the ending from main is dropped as stale, so the view settles once.
    useOperationsStore.getState().receive(done('req-quick-01'));
    stop();
    expect(seen).toEqual(['done']);
  });

  it('gets nothing once it unsubscribed, and nothing for a request still running', async () => {
    useOperationsStore.getState().receive(done('req-quick-02'));
    const seen: string[] = [];
    onOperation('req-quick-02', (event) => seen.push(event.type))();
    useOperationsStore.getState().receive({ ...progress(0), requestId: 'req-running-01' });
    const stop = onOperation('req-running-01', (event) => seen.push(event.type));
    await Promise.resolve();
    stop();
    expect(seen).toEqual([]);
  });
});

describe("a gap in browser mode's event stream", () => {
  it('ends, with a sentence, each operation that stopped unseen, and leaves running ones alone', () => {
    const { receive, receiveGap } = useOperationsStore.getState();
    const settled: string[] = [];
    const stops = ['req-ended-unseen', 'req-still-running', 'req-ended-seen'].map((id) =>
      onOperation(id, (event) => settled.push(`${id} ${event.type} ${event.seq}`)),
    );
    receive({ ...progress(0), requestId: 'req-ended-unseen' });
    receive({ ...progress(0), requestId: 'req-still-running' });
    receive({
      type: 'done',
      requestId: 'req-ended-seen',
      seq: 0,
      progress: { items: 1, pages: 1, consumedCapacity: 0 },
    });
    settled.length = 0;

    receiveGap({ message: 'Some live updates were missed.', running: ['req-still-running'] });
    const state = useOperationsStore.getState();
    expect(state.streamNotice).toBe('Some live updates were missed.');
    expect(settled).toEqual(['req-ended-unseen error 1']);
    const lost = state.byRequest['req-ended-unseen']?.latest;
    expect(lost?.type === 'error' && lost.error).toMatchObject({ code: outcomeUnknownCode, retryable: true });
    expect(lost?.type === 'error' && lost.error.message).toMatch(/outcome is not known here\. Reload/);
    expect(state.byRequest['req-still-running']?.isFinished).toBe(false);

    // Events after an end (a late one, or a repeat) reach no store entry and no listener.
    receive({ ...progress(2), requestId: 'req-ended-unseen' });
    receive({ ...progress(1), requestId: 'req-still-running' });
    expect(settled).toEqual(['req-ended-unseen error 1', 'req-still-running progress 1']);
    for (const stop of stops) stop();
    state.dismissStreamNotice();
    expect(useOperationsStore.getState().streamNotice).toBeUndefined();
  });
});

describe('SSO sign-in hints', () => {
  it('reads the verification address and user code main sends beside its sentence', () => {
    const url = 'https://device.sso.eu-west-1.amazonaws.com/?user_code=WXYZ-ABCD';
    const event = progress(0, `Open ${url} in your browser and confirm the code WXYZ-ABCD.`);
    if (event.type === 'progress')
      event.progress.verification = { url, userCode: 'WXYZ-ABCD', isOpened: false };
    expect(readSignInHints(event)).toEqual({
      message: `Open ${url} in your browser and confirm the code WXYZ-ABCD.`,
      verificationUrl: url,
      userCode: 'WXYZ-ABCD',
      isPageOpened: false,
    });
  });

  it('finds nothing in events that carry no verification', () => {
    expect(readSignInHints(progress(0, 'Scanning…'))).toMatchObject({
      verificationUrl: undefined,
      userCode: undefined,
    });
  });
});
