import { Component } from '@angular/core';

@Component({
  selector: 'billing-revenue-report',
  template: `<adp-card><h2>Revenue</h2></adp-card>`,
})
export class RevenueReportComponent {}
