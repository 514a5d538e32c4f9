const { withModuleFederationPlugin } = require('@angular-architects/module-federation/webpack');

module.exports = withModuleFederationPlugin({
  name: 'billing',
  exposes: {
    './Module': './src/app/billing/billing.module.ts',
  },
});
