import { NgModule } from '@angular/core';
import { RouterModule } from '@angular/router';
import { RevenueReportComponent } from './revenue-report.component';

@NgModule({
  declarations: [RevenueReportComponent],
  imports: [RouterModule.forChild([{ path: '', component: RevenueReportComponent }])],
})
export class ReportsModule {}
