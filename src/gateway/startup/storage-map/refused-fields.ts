/**
 * Whether `message` names one of the `refused` fields (`Type.field`, as a whole word): a check after
 * the storage map leaves such a problem unsaid, since the refused field has its own, and the advice a
 * follow-on problem gives (name a field that exists) would be wrong.
 */
export function namesRefusedField(message: string, refused: ReadonlySet<string> | undefined): boolean {
  for (const coordinate of refused ?? []) {
    for (let at = message.indexOf(coordinate); at >= 0; at = message.indexOf(coordinate, at + 1)) {
      if (!isNameCharacter(message[at - 1]) && !isNameCharacter(message[at + coordinate.length])) return true;
    }
  }
  return false;
}

function isNameCharacter(character: string | undefined): boolean {
  return character !== undefined && /[A-Za-z0-9_]/.test(character);
}
