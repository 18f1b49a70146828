/**
 * The Store's write probe, for `/readyz`: `ok` on a store that takes writes, changing nothing
 * there, and `read_only` on a store that can still be read but not written. Each adapter's test
 * file calls this with a writable store and a read-only one on the same data.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Store } from "../../src/ports/store.ts";
import { newKey } from "./store.contract.ts";

export interface WriteProbeFixture {
  /** A migrated store that takes writes. */
  readonly writable: Store;
  /** A store on the same data that can be read but not written. */
  readonly readOnly: Store;
  cleanup(): Promise<void>;
}

export function describeWriteProbeContract(
  name: string,
  makeFixture: () => Promise<WriteProbeFixture>,
): void {
  describe(`Store write probe: ${name}`, () => {
    let fixture: WriteProbeFixture;
    before(async () => {
      fixture = await makeFixture();
    });
    after(async () => fixture.cleanup());

    it("answers ok on a writable store and changes nothing there", async () => {
      const key = newKey();
      await fixture.writable.createKey(key);
      assert.equal(await fixture.writable.probeWrite(), "ok");
      assert.equal(await fixture.writable.probeWrite(), "ok");
      assert.deepEqual(
        (await fixture.writable.listKeys()).map((k) => k.id),
        [key.id],
      );
      assert.equal(await fixture.writable.isMigrated(), true);
    });

    it("answers read_only on a store that can be read but not written", async () => {
      await fixture.readOnly.ping();
      assert.equal(await fixture.readOnly.isMigrated(), true);
      assert.equal(await fixture.readOnly.probeWrite(), "read_only");
      // The probe leaves the connection usable.
      assert.equal((await fixture.readOnly.listKeys()).length, 1);
      assert.equal(await fixture.readOnly.probeWrite(), "read_only");
    });
  });
}
