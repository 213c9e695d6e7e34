// The node wire protocol, the portal's door to it: the schemas and types live in node/src/wire.ts, the one module
// both the portal and the proxy node (deployed as node/ alone) build on. It imports nothing but zod.
export * from '../../node/src/wire';
