/**
 * `/openapi/v2`, which kubectl reads when a kind is missing from the OpenAPI v3 index (an unknown kind, before
 * it says "no matches for kind"). client-go asks for it in protobuf only (`openapi_v2.Document` of
 * gnostic-models); the simulator answers with a document holding the Swagger version and the info block and no
 * definitions: kubectl validates served kinds against the v3 documents (`openapi.ts`), and an unknown kind then
 * fails its mapping exactly as against kube-apiserver. Asked for JSON, it answers the same header as JSON.
 */

function varint(n: number): Buffer {
  const bytes: number[] = [];
  let v = n;
  while (v > 0x7f) {
    bytes.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** A length-delimited protobuf field (wire type 2). */
function lengthDelimited(field: number, value: Buffer): Buffer {
  return Buffer.concat([varint((field << 3) | 2), varint(value.length), value]);
}

/** `/openapi/v2` as protobuf: Document{swagger: "2.0" (1), info (2): Info{title (1), version (2)}}. */
export function openApiV2Protobuf(kubernetesVersion: string): Buffer {
  const info = Buffer.concat([
    lengthDelimited(1, Buffer.from('Kubernetes')),
    lengthDelimited(2, Buffer.from(kubernetesVersion)),
  ]);
  return Buffer.concat([
    lengthDelimited(1, Buffer.from('2.0')),
    lengthDelimited(2, info),
  ]);
}

/** `/openapi/v2` as JSON: the same header, no paths and no definitions. */
export function openApiV2Json(
  kubernetesVersion: string,
): Record<string, unknown> {
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: kubernetesVersion },
    paths: {},
    definitions: {},
  };
}
