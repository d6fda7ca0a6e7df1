// Seller routes under /api/seller, for users with the seller role: their buyers, their stock of devices,
// and handing a device from that stock to a buyer.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminDeviceSchema,
  buyerSchema,
  ownerChangeResponseSchema,
  sellDeviceSchema,
} from '#core/contracts/admin.contract.ts';
import { errorAnswers, routeSchemas } from '#server/lib/route-schema.ts';
import type { SellerService } from './seller.service';

const errors = errorAnswers(400, 401, 403);
const doc = routeSchemas('seller', errors);

/** Seller routes ('Vendas'): `access: 'seller'`; each answers only with the caller's own buyers and stock. */
export async function sellerRoutes(app: FastifyInstance, opts: { seller: SellerService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/seller/buyers',
    { config: { access: 'seller' }, schema: doc('My buyers (userSeller = me)', z.array(buyerSchema)) },
    (req) => opts.seller.buyers(req.identity!.email),
  );
  r.get(
    '/api/seller/stock',
    {
      config: { access: 'seller' },
      schema: doc('My stock: devices whose seller is me and owner is the company account', z.array(adminDeviceSchema)),
    },
    (req) => opts.seller.stock(req.identity!.email),
  );
  r.post(
    '/api/seller/assign',
    {
      config: { access: 'seller' },
      schema: doc(
        'Hands a device from my stock to one of my buyers; its token is replaced and the new one shown once',
        ownerChangeResponseSchema,
        { body: sellDeviceSchema },
      ),
    },
    async (req) => ({
      ok: true as const,
      id: req.body.deviceId,
      token: await opts.seller.sell(req.identity!.email, req.body.buyer, req.body.deviceId),
    }),
  );
}
