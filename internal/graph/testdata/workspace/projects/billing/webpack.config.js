const { withModuleFederationPlugin } = require('@angular-architects/module-federation/webpack');

module.exports = withModuleFederationPlugin({
  name: 'billing',
  exposes: {
    './Module': './src/app/billing/billing.module.ts',
    './Reports': './src/app/reports/reports.module.ts',
  },
});
