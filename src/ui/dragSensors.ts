import { type KeyboardCoordinateGetter, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';

/**
 * The sensors of every drag board: a pointer drag starts after 6 px (so a click stays a click),
 * and the keyboard drags too (Space picks up, arrows move, Space drops), with the board's own
 * arrow-key moves when it has them.
 */
export function useDragSensors(coordinateGetter?: KeyboardCoordinateGetter) {
  return useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, coordinateGetter ? { coordinateGetter } : {}),
  );
}
