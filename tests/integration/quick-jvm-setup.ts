import { useQuickJvm } from '../e2e/support/quick-jvm';

// A setup file of the integration project, run in each worker before its file starts any java.
// The DynamoDB Locals a file starts for itself (five files, six JVMs) live for that one file
// and serve a few thousand requests: the client compiler and the serial collector cost about a
// third less CPU than Java's defaults there (docs/PERFORMANCE.md). The run's shared instance is
// started by the global setup with options of its own.
useQuickJvm();
