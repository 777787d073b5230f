/**
 * A derivation computed again only when its input changes (by identity). The page's one store
 * updates every animation frame (the clock, the frame count), so every selector runs every frame;
 * the views they derive from change ten times a second at most (once a second at scale). Wrapping
 * a selector's work in this keeps the other frames at a comparison.
 */
export function byIdentity<I, O>(derive: (input: I) => O): (input: I) => O {
  let seen = false;
  let lastIn: I | undefined;
  let lastOut: O | undefined;
  return (input) => {
    if (!seen || input !== lastIn) {
      seen = true;
      lastIn = input;
      lastOut = derive(input);
    }
    return lastOut as O;
  };
}
