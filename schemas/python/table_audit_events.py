"""Writing table-audit events files with the Apache Avro Python library (python3-avro, 1.11).

An events file's schema is the union of every event record. Several records have the same shape (TableClosed and
DealingSwitchedToShoe, for one), so a generic writer that picks a union branch by matching the value against each
branch cannot tell them apart: Python's DatumWriter takes the *last* branch the value fits, and would write a
TableClosed as a DealingSwitchedToShoe. Name the branch instead: `EventDatumWriter` writes a `(full_name, data)`
pair as the union branch of that full name, and everything else as the library does.

Times are `long` with `logicalType: timestamp-millis` (UTC milliseconds); the library wants them as `datetime`s,
and `to_avro` converts them.

    schema = avro.schema.parse(open("events.avsc").read())          # the union, e.g. eventUnionSchema()
    with open("session.avro", "wb") as out:
        writer = avro.datafile.DataFileWriter(out, EventDatumWriter(), schema, codec="snappy")
        for full_name, data in events:                                # ("ta.common.TableClosed", {...})
            writer.append((full_name, to_avro(branch(schema, full_name), data)))
        writer.close()
"""
import datetime

import avro.errors
import avro.io
import avro.schema

__all__ = ["EventDatumWriter", "branch", "to_avro", "from_avro"]

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def branch(union: avro.schema.UnionSchema, full_name: str) -> avro.schema.Schema:
    """The branch of a union named `full_name`; KeyError naming the branches when there is none."""
    for candidate in union.schemas:
        if getattr(candidate, "fullname", None) == full_name:
            return candidate
    raise KeyError(f"{full_name} is not a branch of the events union ({len(union.schemas)} branches)")


class EventDatumWriter(avro.io.DatumWriter):
    """A DatumWriter that writes a top-level `(full_name, data)` pair as the union branch `full_name`."""

    def write(self, datum: object, encoder: avro.io.BinaryEncoder) -> None:
        schema = self.writers_schema
        if isinstance(schema, avro.schema.UnionSchema) and _is_named(datum):
            name, value = datum  # type: ignore[misc]
            chosen = branch(schema, name)
            avro.io.validate(chosen, value, raise_on_error=True)
            encoder.write_long(schema.schemas.index(chosen))
            self.write_data(chosen, value, encoder)
            return
        super().write(datum, encoder)


def _is_named(datum: object) -> bool:
    return isinstance(datum, tuple) and len(datum) == 2 and isinstance(datum[0], str)


def _logical(schema: avro.schema.Schema) -> object:
    return getattr(schema, "logical_type", None) or schema.get_prop("logicalType")


def to_avro(schema: avro.schema.Schema, value: object) -> object:
    """`value` (JSON-like: UTC milliseconds for times) as the library writes it (datetimes for times)."""
    if isinstance(schema, avro.schema.RecordSchema) and isinstance(value, dict):
        return {f.name: to_avro(f.type, value[f.name]) for f in schema.fields if f.name in value}
    if isinstance(schema, avro.schema.UnionSchema):
        if value is None:
            return None
        for candidate in schema.schemas:
            if candidate.type != "null":
                return to_avro(candidate, value)
    if isinstance(schema, avro.schema.ArraySchema) and isinstance(value, list):
        return [to_avro(schema.items, v) for v in value]
    if isinstance(schema, avro.schema.MapSchema) and isinstance(value, dict):
        return {k: to_avro(schema.values, v) for k, v in value.items()}
    if schema.type == "long" and _logical(schema) == "timestamp-millis" and isinstance(value, int):
        return _EPOCH + datetime.timedelta(milliseconds=value)
    return value


def from_avro(value: object) -> object:
    """What the library read, back as JSON-like values (datetimes as UTC milliseconds)."""
    if isinstance(value, dict):
        return {k: from_avro(v) for k, v in value.items()}
    if isinstance(value, list):
        return [from_avro(v) for v in value]
    if isinstance(value, datetime.datetime):
        return (value - _EPOCH) // datetime.timedelta(milliseconds=1)
    return value
