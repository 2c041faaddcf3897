import { useQuickJvm } from './quick-jvm';

// A setup file of the e2e project: runs in each worker before its files start any java.
useQuickJvm();
