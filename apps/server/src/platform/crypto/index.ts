export { hmacSha256Hex, randomBase64Url, randomHex, safeEqual, sha256Hex } from './digest.js';
export { loadOrCreateKeyFile } from './keys.js';
export { burnPasswordCheck, hashPassword, verifyPassword } from './password.js';
export { createSecretBox, type SecretBox } from './secret-box.js';
