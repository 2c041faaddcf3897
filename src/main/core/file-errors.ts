import { type AppError, ErrorCodes } from '../../shared/errors';

interface FileProblem {
  code: string;
  what: string;
  advice: string;
  retryable?: boolean;
}

/** Node's errno names for the file problems a user can cause or fix, as our codes and sentences. */
const PROBLEMS: Record<string, FileProblem> = {
  ENOENT: {
    code: ErrorCodes.fileNotFound,
    what: 'there is no such file or folder',
    advice: 'Check the path and try again.',
  },
  ENOTDIR: {
    code: ErrorCodes.fileNotFound,
    what: 'a part of the path is a file, not a folder',
    advice: 'Check the path and try again.',
  },
  EISDIR: {
    code: ErrorCodes.notAFile,
    what: 'it is a folder, not a file',
    advice: 'Add a file name to the path.',
  },
  EEXIST: {
    code: ErrorCodes.fileExists,
    what: 'it already exists',
    advice: 'Choose another name, or confirm replacing it.',
  },
  EACCES: {
    code: ErrorCodes.fileAccessDenied,
    what: 'the operating system denied access',
    advice: 'Choose a file or folder you may use.',
  },
  EPERM: {
    code: ErrorCodes.fileAccessDenied,
    what: 'the operating system does not allow it',
    advice: 'Choose a file or folder you may use.',
  },
  EROFS: {
    code: ErrorCodes.fileAccessDenied,
    what: 'the disk is read-only',
    advice: 'Choose a folder on a writable disk.',
  },
  ENOSPC: {
    code: ErrorCodes.diskFull,
    what: 'the disk is full',
    advice: 'Free some space or choose another disk.',
  },
  EDQUOT: {
    code: ErrorCodes.diskFull,
    what: 'your disk quota is used up',
    advice: 'Free some space and try again.',
  },
  ENAMETOOLONG: {
    code: ErrorCodes.invalidInput,
    what: 'the name is too long for this file system',
    advice: 'Choose a shorter name.',
  },
  ELOOP: {
    code: ErrorCodes.invalidInput,
    what: 'its symbolic links form a loop',
    advice: 'Choose another path.',
  },
  EMFILE: {
    code: ErrorCodes.tooManyOpenFiles,
    what: 'too many files are open',
    advice: 'Try again in a moment.',
    retryable: true,
  },
  ENFILE: {
    code: ErrorCodes.tooManyOpenFiles,
    what: 'too many files are open',
    advice: 'Try again in a moment.',
    retryable: true,
  },
};

const VERBS: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write to',
  rename: 'save',
  stat: 'find',
  lstat: 'find',
  realpath: 'find',
  mkdir: 'create the folder',
  unlink: 'remove',
  rmdir: 'remove',
  scandir: 'list',
  access: 'use',
  copyfile: 'copy',
  readlink: 'find',
  fstat: 'read',
};

/**
 * A failed file system call as a sentence that names the path: which file, what the system
 * said in words, what to do. Undefined for anything that is not a file system error.
 */
export function fileError(error: unknown): AppError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { code?: unknown; syscall?: unknown; path?: unknown; dest?: unknown; message?: unknown };
  if (e.code === 'ERR_INVALID_ARG_VALUE' && typeof e.message === 'string' && /null bytes/.test(e.message)) {
    return {
      code: ErrorCodes.invalidInput,
      message: 'A file path cannot contain a NUL character (\\0). Remove it and try again.',
      retryable: false,
    };
  }
  // Sockets and child processes report errno names too (connect ECONNREFUSED, spawn ENOENT); a
  // socket's read or write names no path (a connection reset while DynamoDB answered).
  if (typeof e.code !== 'string' || typeof e.syscall !== 'string' || !(e.syscall in VERBS)) return undefined;
  if (e.path === undefined && e.dest === undefined && /^E(CONN|PIPE|TIMEDOUT|HOSTUNREACH)/.test(e.code))
    return undefined;
  const problem = PROBLEMS[e.code];
  // A rename's problem is at its destination: the user named that one, not the temporary file.
  const where = typeof e.dest === 'string' ? e.dest : typeof e.path === 'string' ? e.path : undefined;
  const verb = VERBS[e.syscall] ?? 'use';
  const target = where === undefined ? 'a file' : JSON.stringify(where);
  return {
    code: problem?.code ?? ErrorCodes.fileSystemError,
    message: problem
      ? `DynoTable could not ${verb} ${target}: ${problem.what}. ${problem.advice}`
      : `DynoTable could not ${verb} ${target} (the system said ${e.code}). Check the path and try again.`,
    retryable: problem?.retryable ?? false,
    details: { ...(where === undefined ? {} : { path: where }), systemCode: e.code },
  };
}
