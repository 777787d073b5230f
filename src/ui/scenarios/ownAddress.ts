/**
 * The address this tab last wrote for its own run (`#scenario=...`), which is no link to open:
 * booting again on it (a take-back after another tab took the cluster over, a reload) must
 * resume from what is stored. The scenario in the address may be newer than the one saved with
 * the cluster (a Send N job's slices are saved every few seconds), and opening it as a link would
 * then ask to replace the stored cluster with a replay of itself.
 *
 * Kept in memory and, as a digest, in sessionStorage, which lives as long as the tab and survives
 * its reloads; another tab opening the same address has none, so there it is a link.
 */
const KEY = 'glassbox.ownAddress';
let written: string | null = null;

/** FNV-1a over the text, with its length: enough to tell this tab's own address from another. */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${text.length}:${h.toString(16)}`;
}

export function rememberOwnAddress(hash: string): void {
  written = hash;
  try {
    sessionStorage.setItem(KEY, digest(hash));
  } catch {
    // No sessionStorage (a sandboxed frame): the in-memory copy still covers a take-back.
  }
}

export function isOwnAddress(hash: string): boolean {
  if (hash === written) return true;
  try {
    return hash !== '' && sessionStorage.getItem(KEY) === digest(hash);
  } catch {
    return false;
  }
}
