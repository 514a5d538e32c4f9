const { ModuleFederationPlugin } = require('webpack').container;
const path = require('path');

module.exports = {
  output: { publicPath: 'auto' },
  plugins: [
    new ModuleFederationPlugin({
      name: 'dashboard',
      filename: 'remoteEntry.js',
      remotes: {
        billing: 'billing@https://cdn.example.com/billing/remoteEntry.js',
      },
      exposes: {
        './DashboardModule': './src/app/dashboard/dashboard.module.ts',
      },
    }),
  ],
};
