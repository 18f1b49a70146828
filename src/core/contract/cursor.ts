/**
 * Opaque page cursors: a store's own position (a sequence number, a key's creation time and id)
 * tagged with the list it belongs to and base64url-encoded, so clients cannot build one and a
 * cursor of one list is refused by another with a 400 naming `cursor`.
 */
import { ApiError } from "../kernel/errors.ts";

const SEQUENCE = /^[0-9]{1,19}$/;

export function encodeCursor(tag: string, position: string): string {
  return Buffer.from(`${tag}:${position}`).toString("base64url");
}

/** The position a cursor of list `tag` holds; 400 `validation_error` naming `cursor` otherwise. */
export function decodeCursor(tag: string, cursor: string, valid: RegExp = SEQUENCE): string {
  const decoded = Buffer.from(cursor, "base64url").toString("utf8");
  const position = decoded.slice(tag.length + 1);
  if (!decoded.startsWith(`${tag}:`) || !valid.test(position)) throw invalidCursor();
  return position;
}

/** 400 `validation_error` naming `cursor`: for a cursor that decodes but that the store refuses. */
export function invalidCursor(): ApiError {
  return new ApiError("validation_error", "The cursor was not issued by this endpoint.", {
    extras: { fields: { cursor: "is not a valid cursor" } },
  });
}
