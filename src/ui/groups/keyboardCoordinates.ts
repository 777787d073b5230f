/**
 * Keyboard dragging between drop zones: with a chip picked up (Space or Enter), the arrow keys
 * jump from one drop zone to the next in reading order instead of nudging by pixels, so moving a
 * consumer to another group takes one or two key presses. (dnd-kit's KeyboardSensor asks this
 * function where the dragged item should go next.)
 */
import type { KeyboardCoordinateGetter } from '@dnd-kit/core';

export const jumpBetweenDropZones: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const { collisionRect, droppableRects, droppableContainers, over } = context;
  const forward = event.code === 'ArrowRight' || event.code === 'ArrowDown';
  const backward = event.code === 'ArrowLeft' || event.code === 'ArrowUp';
  if (!forward && !backward) return undefined;
  event.preventDefault();
  const zones = droppableContainers
    .getEnabled()
    .map((c) => ({ id: c.id, rect: droppableRects.get(c.id) }))
    .filter((z): z is { id: typeof z.id; rect: NonNullable<typeof z.rect> } => z.rect !== undefined)
    .sort((a, b) => a.rect.top - b.rect.top || a.rect.left - b.rect.left);
  if (zones.length === 0) return currentCoordinates;
  // Where the chip is now: the zone it is over, else the zone holding its centre (its own group).
  let at = over ? zones.findIndex((z) => z.id === over.id) : -1;
  if (at < 0 && collisionRect) {
    const cx = collisionRect.left + collisionRect.width / 2;
    const cy = collisionRect.top + collisionRect.height / 2;
    at = zones.findIndex((z) => cx >= z.rect.left && cx <= z.rect.right && cy >= z.rect.top && cy <= z.rect.bottom);
  }
  const next = at < 0 ? (forward ? 0 : zones.length - 1) : (at + (forward ? 1 : -1) + zones.length) % zones.length;
  const target = zones[next];
  if (!target) return currentCoordinates;
  const w = collisionRect?.width ?? 0;
  const h = collisionRect?.height ?? 0;
  return {
    x: target.rect.left + target.rect.width / 2 - w / 2,
    y: target.rect.top + Math.min(target.rect.height / 2, 40) - h / 2,
  };
};
