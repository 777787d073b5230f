/**
 * The slice of IndexedDB that IdbStore touches, typed structurally so that the Node typecheck
 * (which has no DOM lib) accepts it: real IDBObjectStore / IDBRequest objects fit it, and so do
 * fake-indexeddb's and the tests' failing stand-ins. Plus the two promise adapters over it.
 */
import { createStore } from 'idb-keyval';

/** An event handler slot; DOM handlers take an event this file never reads. */
type IdbHandler = ((ev: never) => unknown) | null;
export interface IdbRequestLike<T> {
  readonly result: T;
  readonly error: unknown;
  onsuccess: IdbHandler;
  onerror: IdbHandler;
}
/** The connection a transaction runs on: closed when another page deletes or upgrades the database. */
export interface IdbDatabaseLike {
  readonly name: string;
  close(): void;
  onversionchange: IdbHandler;
}
export interface IdbTransactionLike {
  readonly error: unknown;
  readonly db: IdbDatabaseLike;
  oncomplete: IdbHandler;
  onerror: IdbHandler;
  onabort: IdbHandler;
  abort(): void;
}
export interface IdbObjectStoreLike {
  readonly transaction: IdbTransactionLike;
  get(key: string): IdbRequestLike<unknown>;
  put(value: unknown, key: string): IdbRequestLike<unknown>;
  delete(key: string): IdbRequestLike<undefined>;
  getAllKeys(): IdbRequestLike<unknown[]>;
  clear(): IdbRequestLike<undefined>;
}
export interface IdbFactoryLike {
  deleteDatabase(name: string): IdbRequestLike<unknown> & { onblocked: IdbHandler };
}
/** idb-keyval's `UseStore`: runs a callback on the object store inside a fresh transaction. */
export type UseObjectStore = <T>(
  mode: 'readonly' | 'readwrite',
  callback: (store: IdbObjectStoreLike) => T | PromiseLike<T>,
) => Promise<T>;

/** idb-keyval's store, seen through the narrower object-store interface this file uses. */
export function idbKeyvalStore(dbName: string, storeName: string): UseObjectStore {
  const use = createStore(dbName, storeName);
  return (mode, callback) => use(mode, callback);
}

/** A request's result as a promise. */
export function request<T>(req: IdbRequestLike<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** A transaction's commit as a promise (rejected on error or abort). */
export function completion(tx: IdbTransactionLike): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}
