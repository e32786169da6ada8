// Types of the codec packages that ship none (only what ocf-codecs.ts uses).

declare module 'snappyjs' {
  export function compress(data: Uint8Array): Uint8Array;
  /** throws when the declared uncompressed length exceeds maxLength, or when the data is not a snappy block */
  export function uncompress(data: Uint8Array, maxLength?: number): Uint8Array;
}

declare module 'seek-bzip' {
  interface InputStream {
    readByte(): number;
    /** fills buffer from offset; the number of bytes read, or -1 at the end */
    read(buffer: Uint8Array, offset: number, length: number): number;
    seek(pos: number): void;
    eof(): boolean;
  }
  interface OutputStream {
    writeByte(byte: number): void;
  }
  const Bunzip: {
    decode(input: InputStream, output: OutputStream, multistream?: boolean): void;
  };
  export default Bunzip;
}
