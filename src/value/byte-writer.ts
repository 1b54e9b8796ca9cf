// value/: a growable byte buffer, the base of the binary encoders of values (wire CBOR, order-preserving keys).

export class ByteWriter {
  protected buf: Uint8Array;
  protected view: DataView;
  len = 0;

  constructor(initial = 256) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }

  /** Room for `n` more bytes. */
  protected ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.len++] = b;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  /** A copy of what was written. */
  result(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
