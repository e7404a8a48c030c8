import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './src/server/rest/document';
const d = buildOpenApiDocument('https://api.example.test') as any;
writeFileSync('/tmp/openapi.json', JSON.stringify(d, null, 2));
console.log(Object.keys(d.components.schemas));
