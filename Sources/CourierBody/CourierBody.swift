// The CourierBody module. Its files hold one main type each.
