"""Drives the Apache Avro Python library (Debian's python3-avro) for the generic-writer tests.

    generic_writer.py write SCHEMA.json EVENTS.jsonl OUT.avro CODEC   events ({"type": full name, "data": …} lines)
    generic_writer.py read FILE.avro OUT.jsonl                         every record, as JSON lines

It writes with the library's DataFileWriter through schemas/python/table_audit_events.py (the producer-side way to
name the union branch). The library has no xz codec; `xz` is added here as the Avro specification defines it (the
block is an xz stream), with the standard library's lzma.
"""
import io
import json
import lzma
import os
import sys

import avro.codecs
import avro.datafile
import avro.io
import avro.schema

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "schemas", "python"))
from table_audit_events import EventDatumWriter, branch, from_avro, to_avro  # noqa: E402


class XZCodec(avro.codecs.Codec):
    @staticmethod
    def compress(data: bytes):
        compressed = lzma.compress(data)  # the xz container, with a CRC64 check
        return compressed, len(compressed)

    @staticmethod
    def decompress(readers_decoder):
        readers_decoder.skip_long()
        return avro.io.BinaryDecoder(io.BytesIO(lzma.decompress(readers_decoder.read_bytes())))


avro.codecs.KNOWN_CODECS["xz"] = XZCodec


def write(schema_path: str, events_path: str, out_path: str, codec: str) -> None:
    schema = avro.schema.parse(open(schema_path, encoding="utf8").read())
    with open(out_path, "wb") as out, open(events_path, encoding="utf8") as events:
        writer = avro.datafile.DataFileWriter(out, EventDatumWriter(), schema, codec=codec)
        for line in events:
            event = json.loads(line)
            writer.append((event["type"], to_avro(branch(schema, event["type"]), event["data"])))
        writer.close()


def read(path: str, out_path: str) -> None:
    with open(path, "rb") as f, open(out_path, "w", encoding="utf8") as out:
        for record in avro.datafile.DataFileReader(f, avro.io.DatumReader()):
            out.write(json.dumps(from_avro(record)) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(*sys.argv[2:6])
    elif sys.argv[1] == "read":
        read(*sys.argv[2:4])
    else:
        sys.exit(f"unknown command {sys.argv[1]}")
