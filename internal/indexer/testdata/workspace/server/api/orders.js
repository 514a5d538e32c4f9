const express = require('express');
const { formatTotal } = require('./format');

class OrdersController {
  list(req, res) {
    res.json([{ id: 'o-1', total: formatTotal(12) }]);
  }
}

function ordersRouter() {
  const router = express.Router();
  router.get('/orders', (req, res) => new OrdersController().list(req, res));
  return router;
}

module.exports = { ordersRouter, OrdersController };
