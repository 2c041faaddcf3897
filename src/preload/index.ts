import { contextBridge, ipcRenderer } from 'electron';
import { buildBridge } from './bridge';

/**
 * Runs sandboxed with context isolation: the page sees only the frozen object exposed here,
 * never ipcRenderer, Node or process.
 */
contextBridge.exposeInMainWorld('dynotable', buildBridge(ipcRenderer));
