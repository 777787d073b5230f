/**
 * Where a request token goes on the brokers board so it never passes over a control (pure
 * geometry, in the board's own coordinates; MessageTokens.tsx measures the anchors and buttons).
 */

import { CHIP_H, chipWidth } from './tokenLanes';

export interface Point {
  x: number;
  y: number;
}
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The box of a chip labelled `label` centred on `p`. */
export function chipBox(p: Point, label: string): Box {
  const w = chipWidth(label);
  return { left: p.x - w / 2, right: p.x + w / 2, top: p.y - CHIP_H / 2, bottom: p.y + CHIP_H / 2 };
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Where a chip labelled `label` starts its hop from a to b: at a, when the straight path never
 * brings the chip over a button; else at b (it is shown arriving, not crossing the controls).
 */
export function routeStart(a: Point, b: Point, label: string, buttons: readonly Box[]): Point {
  const steps = Math.max(2, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / (CHIP_H / 2)));
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    const box = chipBox({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t }, label);
    if (buttons.some((k) => overlaps(box, k))) return b;
  }
  return a;
}
