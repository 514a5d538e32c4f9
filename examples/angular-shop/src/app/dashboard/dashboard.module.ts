import { NgModule } from '@angular/core';
import { CommonModule } from '@angular/common';
import { RouterModule } from '@angular/router';
import { DashboardComponent } from './dashboard.component';
import { AdpAlertComponent } from '../shared/ui/alert/adp-alert.component';
import { AdpDataTableComponent } from '../shared/ui/data-table/adp-data-table.component';

@NgModule({
  declarations: [DashboardComponent],
  imports: [
    CommonModule,
    AdpAlertComponent,
    AdpDataTableComponent,
    RouterModule.forChild([{ path: '', component: DashboardComponent }]),
  ],
})
export class DashboardModule {}
