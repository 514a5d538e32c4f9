import { Injectable } from '@angular/core';
import { Observable, of } from 'rxjs';
import { Customer } from './customer.model';

@Injectable({ providedIn: 'root' })
export class CustomersService {
  current(): Observable<Customer> {
    return of({ id: '1', name: 'Ada', city: 'London' });
  }
}
