/**
 * Message types the contracts do not declare but the binary codecs must read as protobuf-es does:
 * every scalar type singular, optional, repeated and as map keys and values, a oneof, a recursive
 * field; and a type with the fields protobuf-es represents specially (a wrapper read as its bare
 * value, a Struct read as a JSON object, a 64-bit integer read as a string).
 */

import { createFileRegistry, fromJson, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Type as Type,
  FileDescriptorProtoSchema,
  file_google_protobuf_struct,
  file_google_protobuf_wrappers,
  type DescriptorProtoJson,
  type FieldDescriptorProtoJson,
} from "@bufbuild/protobuf/wkt";

const SCALARS: [string, Type][] = [
  ["double", Type.DOUBLE],
  ["float", Type.FLOAT],
  ["int32", Type.INT32],
  ["int64", Type.INT64],
  ["uint32", Type.UINT32],
  ["uint64", Type.UINT64],
  ["sint32", Type.SINT32],
  ["sint64", Type.SINT64],
  ["fixed32", Type.FIXED32],
  ["fixed64", Type.FIXED64],
  ["sfixed32", Type.SFIXED32],
  ["sfixed64", Type.SFIXED64],
  ["bool", Type.BOOL],
  ["string", Type.STRING],
  ["bytes", Type.BYTES],
];

// Map key types: every scalar but floating point and bytes.
const KEYS = SCALARS.filter(([, type]) => type !== Type.DOUBLE && type !== Type.FLOAT && type !== Type.BYTES);

type FieldJson = FieldDescriptorProtoJson;

function field(name: string, number: number, type: Type, more: Partial<FieldJson> = {}): FieldJson {
  return { name, number, type: `TYPE_${Type[type]}` as FieldJson["type"], label: "LABEL_OPTIONAL", jsonName: name, ...more };
}

function scalarsMessage(): DescriptorProtoJson {
  const fields: FieldJson[] = [];
  const nested: DescriptorProtoJson[] = [];
  const oneofs: { name: string }[] = [{ name: "choice" }];
  let number = 1;
  for (const [name, type] of SCALARS) {
    fields.push(field(`s_${name}`, number++, type));
    fields.push(field(`r_${name}`, number++, type, { label: "LABEL_REPEATED" }));
    fields.push(field(`o_${name}`, number++, type, { proto3Optional: true, oneofIndex: oneofs.length }));
    oneofs.push({ name: `_o_${name}` });
    fields.push(field(`c_${name}`, number++, type, { oneofIndex: 0 }));
  }
  for (const [key, keyType] of KEYS) {
    const [value, valueType] = SCALARS[(KEYS.findIndex(([k]) => k === key) * 7) % SCALARS.length] as [string, Type];
    const entry = `M${key}Entry`;
    nested.push({
      name: entry,
      field: [field("key", 1, keyType), field("value", 2, valueType)],
      options: { mapEntry: true },
    });
    fields.push(field(`m_${key}_${value}`, number++, Type.MESSAGE, { label: "LABEL_REPEATED", typeName: `.fixture.Scalars.${entry}` }));
  }
  nested.push({
    name: "MnestedEntry",
    field: [field("key", 1, Type.SINT64), field("value", 2, Type.MESSAGE, { typeName: ".fixture.Scalars" })],
    options: { mapEntry: true },
  });
  fields.push(field("m_nested", number++, Type.MESSAGE, { label: "LABEL_REPEATED", typeName: ".fixture.Scalars.MnestedEntry" }));
  fields.push(field("child", number++, Type.MESSAGE, { typeName: ".fixture.Scalars" }));
  fields.push(field("children", number++, Type.MESSAGE, { label: "LABEL_REPEATED", typeName: ".fixture.Scalars" }));
  fields.push(field("c_child", number++, Type.MESSAGE, { typeName: ".fixture.Scalars", oneofIndex: 0 }));
  fields.push(field("color", number++, Type.ENUM, { typeName: ".fixture.Color" }));
  fields.push(field("colors", number++, Type.ENUM, { label: "LABEL_REPEATED", typeName: ".fixture.Color" }));
  return { name: "Scalars", field: fields, nestedType: nested, oneofDecl: oneofs };
}

// One type per special field, so each is seen to need protobuf-es's reading on its own.
const SPECIAL: Record<string, FieldJson> = {
  Wrapped: field("wrapped", 1, Type.MESSAGE, { typeName: ".google.protobuf.Int32Value" }),
  Structured: field("struct", 1, Type.MESSAGE, { typeName: ".google.protobuf.Struct" }),
  Stringed: field("as_string", 1, Type.INT64, { options: { jstype: "JS_STRING" } }),
};

const file = fromJson(FileDescriptorProtoSchema, {
  name: "fixture/scalars.proto",
  package: "fixture",
  syntax: "proto3",
  dependency: ["google/protobuf/wrappers.proto", "google/protobuf/struct.proto"],
  messageType: [
    scalarsMessage(),
    ...Object.entries(SPECIAL).map(([name, f]) => ({ name, field: [f] })),
    // A special field one message down.
    { name: "Outer", field: [field("inner", 1, Type.MESSAGE, { typeName: ".fixture.Structured" })] },
  ],
  enumType: [
    {
      name: "Color",
      value: [
        { name: "COLOR_UNSPECIFIED", number: 0 },
        { name: "COLOR_RED", number: 1 },
        { name: "COLOR_BLUE", number: 2 },
      ],
    },
  ],
});

const imports: Record<string, DescFile> = {
  "google/protobuf/wrappers.proto": file_google_protobuf_wrappers,
  "google/protobuf/struct.proto": file_google_protobuf_struct,
};
const registry = createFileRegistry(file, (name) => imports[name]);

/** Every scalar type in every shape a proto3 field can take. */
export const ScalarsSchema = registry.getMessage("fixture.Scalars") as DescMessage;

/** Types with one field protobuf-es reads into another shape than the wire's (a wrapper, a Struct, a 64-bit string), and one holding such a type. */
export const specialSchemas = [...Object.keys(SPECIAL), "Outer"].map((name) => registry.getMessage(`fixture.${name}`) as DescMessage);
