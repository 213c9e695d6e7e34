// Every input schema of the portal, one module per area; actions import from here. Client components import the
// module they need (./account) so a page's bundle does not carry the console's schemas.
export * from './account';
export * from './commerce';
export * from './console';
export * from './numbers';
export * from './invoice';
export * from './transfer';
